/* The filter lock for 4 threads, each entering once (racelab-bench's filterLock(4);
   RaceLab's model is filter4.race). Its wait reads one shared variable a step, as
   RaceLab's `while (level[j] >= l || …) && victim[l] == i { }` does: it reads the
   other threads' levels in order and stops at the first at l or above, then reads
   victim[l], and reads them all again while this thread is still the victim. Each
   atomic block below is one step: one shared read and the thread's own bookkeeping. */
#define N 4
#define FIRST (_pid == 0 -> 1 : 0)   /* the first thread that is not this one */
byte level[N];
byte victim[N];
byte inside;
active [N] proctype T() {
    byte l = 1;
    byte j;
    do
    :: l < N ->
        level[_pid] = l;
        atomic { victim[l] = _pid; j = FIRST };
        do
        :: atomic { j < N && level[j] < l -> j++; if :: j == _pid -> j++ :: else fi }
        :: atomic { j == N -> j = 0; break }          /* nobody else at l or above */
        :: atomic { j < N && level[j] >= l -> j = N + 1 }
        :: atomic { j == N + 1 && victim[l] == _pid -> j = FIRST }   /* wait on */
        :: atomic { j == N + 1 && victim[l] != _pid -> j = 0; break }
        od;
        l++
    :: else -> break
    od;
    inside++;
    assert(inside == 1);
    inside--;
    level[_pid] = 0
}
