/* Peterson's algorithm, two threads looping forever, with a wait that reads one
   shared variable a step, as RaceLab's `while flagB && turn == 1 { }` does
   (RaceLab's model is peterson.race; peterson.pml waits on both in one guard).
   Mutual exclusion is asserted, and the progress label in the critical section is
   for the non-progress-cycle search (-DNP, pan -l -f), which checks the assertion too. */
bool flag[2];
byte turn;
byte inside;
active [2] proctype P() {
    do
    :: flag[_pid] = true;
       turn = 1 - _pid;
       do
       :: flag[1 - _pid] == false -> break
       :: flag[1 - _pid] ->
          if
          :: turn == _pid -> break
          :: turn != _pid -> skip        /* wait on: read the flag again */
          fi
       od;
       inside++;
progress:
       assert(inside == 1);
       inside--;
       flag[_pid] = false
    od
}
