/* Peterson's algorithm, two threads looping forever; mutual exclusion asserted, and
   a progress label in the critical section for the non-progress-cycle search. */
bool flag[2];
byte turn;
byte inside;
active [2] proctype P() {
    do
    :: flag[_pid] = true;
       turn = 1 - _pid;
       (flag[1 - _pid] == false || turn == _pid);
       inside++;
progress:
       assert(inside == 1);
       inside--;
       flag[_pid] = false
    od
}
