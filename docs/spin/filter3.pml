/* The filter lock for 3 threads, each entering once (racelab-bench "filter lock N=3"). */
byte level[3];
byte victim[3];
byte inside;
active [3] proctype T() {
    byte l = 1;
    do
    :: l < 3 ->
        level[_pid] = l;
        victim[l] = _pid;
        do
        :: (victim[l] == _pid) &&
           ((_pid != 0 && level[0] >= l) || (_pid != 1 && level[1] >= l) || (_pid != 2 && level[2] >= l)) -> skip
        :: else -> break
        od;
        l++
    :: else -> break
    od;
    inside++;
    assert(inside == 1);
    inside--;
    level[_pid] = 0
}
