/**
 * The exit code a command shares with others: a search cut by one of its
 * bounds with nothing found (explore, diff, compare). Not 0, which only a
 * whole search earns, and not 1, which means a violation or a difference.
 * (0, 1 and 2 are spelled where they are returned; 130/143 are the
 * interrupt's, see sim/interrupt.ts.)
 */
export const EXIT_PARTIAL = 3;
