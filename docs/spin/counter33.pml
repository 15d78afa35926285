/* A load/store counter: 3 threads, 3 increments each (racelab-bench "counter N=3 K=3"). */
int count = 0;
active [3] proctype T() {
    int i = 0;
    int c;
    do
    :: i < 3 -> c = count; count = c + 1; i++
    :: else -> break
    od
}
