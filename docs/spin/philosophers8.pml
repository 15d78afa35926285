/* Dining philosophers, 8, each takes the left fork then the right (racelab-bench's
   philosophers(8); RaceLab's model is philosophers8.race): SPIN reports the deadlock
   as an invalid end state. */
#define N 8
bool fork[N];
byte meals;
active [N] proctype P() {
    atomic { fork[_pid] == false -> fork[_pid] = true };
    atomic { fork[(_pid + 1) % N] == false -> fork[(_pid + 1) % N] = true };
    meals++;
    fork[(_pid + 1) % N] = false;
    fork[_pid] = false
}
