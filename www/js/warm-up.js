// warm-up.js — the levels a solver worker solves silently once its wasm is in (written
// for this project): the browser compiles a wasm function fully only after it has run a
// while, so without them the person's first Solve or Hint runs on the quick first compile
// (wasm in Node: XSokoban 26 cold 243 ms, after DOZEN 102 ms; bench/decisions.md). A small
// level first, so that a request made at once waits little for a warm-up it cannot stop
// mid-setup; then DOZEN, whose search runs long enough to matter.

/** Six boxes, solved by the fast search in a few positions. */
export const SMALL = ` #########
 #   #   #
 # $   $ #
 # # # # ##
## $ @  $ #
#   #$#   #
#  $  ... #
#  #  ... #
##    #####
 ######`;

/**
 * Twelve boxes in a room with pillars, the goals in a block at the bottom: the fast search
 * solves it in well under a second natively (0.04–0.2 s while it was being tuned), a
 * little longer in wasm. The e2e tests use it too.
 */
export const DOZEN = `################
#      #       #
#   @$ #   # $ #
#  ## $  $ # $ #
# $    ##      #
##  #    $ ##  #
# $ #  # $     #
#      # $ #   #
######  ...#   #
     # $...  ###
     #  ...$ #
     #  ...  #
     #########`;

/** The warm-up, in order. */
export const WARM_UP = [SMALL, DOZEN];
