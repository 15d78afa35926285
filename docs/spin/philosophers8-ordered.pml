/* Dining philosophers, 8, each takes the lower-numbered of its forks first, so the
   last takes fork 0, then fork 7 (RaceLab's model is philosophers8-ordered.race): no
   cycle of waits, no invalid end state. */
#define N 8
#define LEFT _pid
#define RIGHT ((_pid + 1) % N)
#define FIRST (LEFT < RIGHT -> LEFT : RIGHT)
#define SECOND (LEFT < RIGHT -> RIGHT : LEFT)
bool fork[N];
byte meals;
active [N] proctype P() {
    atomic { fork[FIRST] == false -> fork[FIRST] = true };
    atomic { fork[SECOND] == false -> fork[SECOND] = true };
    meals++;
    fork[SECOND] = false;
    fork[FIRST] = false
}
