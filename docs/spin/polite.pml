/* Two polite threads (scenario polite-livelock): each backs off while the other
   wants in. With -DNP and pan -l -f, SPIN finds the non-progress cycle. */
bool want[2];
active [2] proctype P() {
    want[_pid] = true;
    do
    :: want[1 - _pid] -> want[_pid] = false; want[_pid] = true
    :: else -> break
    od;
progress:
    want[_pid] = false
}
