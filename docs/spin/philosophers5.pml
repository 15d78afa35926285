/* Dining philosophers, 5, each takes the left fork then the right (racelab-bench
   "dining philosophers N=5"): SPIN reports the deadlock as an invalid end state. */
bool fork[5];
byte meals;
active [5] proctype P() {
    atomic { fork[_pid] == false -> fork[_pid] = true };
    atomic { fork[(_pid + 1) % 5] == false -> fork[(_pid + 1) % 5] = true };
    meals++;
    fork[(_pid + 1) % 5] = false;
    fork[_pid] = false
}
