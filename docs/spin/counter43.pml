/* A load/store counter: 4 threads, 3 increments each (racelab-bench "counter N=4 K=3";
   RaceLab's model is counter43.race). */
int count = 0;
active [4] proctype T() {
    int i = 0;
    int c;
    do
    :: i < 3 -> c = count; count = c + 1; i++
    :: else -> break
    od
}
