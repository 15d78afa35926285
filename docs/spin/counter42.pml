/* A load/store counter: 4 threads, 2 increments each (racelab-bench "counter N=4 K=2"). */
int count = 0;
active [4] proctype T() {
    int i = 0;
    int c;
    do
    :: i < 2 -> c = count; count = c + 1; i++
    :: else -> break
    od
}
