/* A racy load/store counter: 4 threads, 3 increments each, checked at the end (RaceLab's
   model is counter-racy.race, whose `expect count == 12` is checked in the final state):
   the thread that finishes last asserts that no increment was lost. */
int count = 0;
byte finished = 0;
active [4] proctype T() {
    int i = 0;
    int c;
    do
    :: i < 3 -> c = count; count = c + 1; i++
    :: else -> break
    od;
    atomic { finished++; assert(finished < 4 || count == 12) }
}
