// Levels used by the end-to-end tests (written for these tests), in every input format.

import { readFileSync } from 'node:fs';

/** Player (2,3); boxes (1,4) and (3,3); goals (1,1) and (3,4). 14 moves, 4 pushes by hand. */
export const ROOM = '#######\n#.  $ #\n# #@  #\n#  $. #\n#######';

/**
 * An open room: player (1,1), box (2,2), goal (3,6). Dragging the box to the goal takes
 * 5 pushes (4 right, 1 down) and 8 moves: d RRRR ur D, or r D ld RRRR.
 */
export const HALL = '########\n#@     #\n# $    #\n#     .#\n########';

/**
 * Eight boxes pushed through a narrow door into a goal room: 59 pushes, about half a second
 * for the solver natively (longer in wasm), so the page sees several progress updates.
 */
export const DOORWAY = `###############
#             #
# $   $   $   #
#  $   @  $   #
#   $   $   $ #
#             #
######. #######
     #...#
     #...#
     #. ##
     ####`;

/** Eleven boxes far apart in a big open room: takes the solver far longer than a test. */
export const BIG_OPEN = `####################
#                  #
# $    $    $    $ #
#                  #
#   $    $    $    #
#        @         #
#  $    $    $   $ #
#                  #
#  ....            #
#  ....  ...       #
#                  #
####################`;

// The same kind of small levels in each format, each with its own size (cols x rows).
export const FORMATS = [
  { name: 'XSB', text: '########\n#  .   #\n# $@ $ #\n#   .  #\n########', cols: 8, rows: 5 },
  { name: 'run-length', text: '9#|#3-#3-#|#-$-.-$-#|#2-.@.2-#|#3-$3-#|9#', cols: 9, rows: 6 },
  { name: 'MF8', text: 'HHHHHHHHHH|Ha_$__.__H|H__$__.__H|H________H|HHHHHHHHHH', cols: 10, rows: 5 },
  {
    name: 'SokoPlayer link',
    text: 'http://sokoban.ws/sokoplayer/?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH',
    cols: 4,
    rows: 9,
  },
  { name: '[soko] wrapper', text: '[soko=6,6]HHHHHH|H.___H|H_$$_H|H_a._H|H____H|HHHHHH[/soko]', cols: 6, rows: 6 },
  {
    name: 'SokobanScript level link',
    text: 'https://example.org/sokobanscript/?level=%23%23%23%23%23%23%23%23%23%23%23%0A%23.--%24-%40-%24.%23%0A%23---%23%23%23---%23%0A%23---------%23%0A%23%23%23%23%23%23%23%23%23%23%23',
    cols: 11,
    rows: 5,
  },
  {
    name: 'SokobanScript base64 link',
    text: 'https://example.org/sokobanscript/?base64=IyMjIyMKI0AgICMKIyAkICMKIyAgICMKIyAkICMKIy4uICMKIyMjIyM',
    cols: 5,
    rows: 7,
  },
];

/** A collection with titles and one invalid level. */
export const COLLECTION = `; Test Garden

; Small Step
#####
#@$.#
#####

; Two Boxes
#######
#.$ $.#
#  @  #
#######

; Broken
#####
#@$ #
#####

; Last One
######
#.$@ #
#  $.#
######
`;

/** Twelve boxes in a room with pillars (the solver workers' warm-up level too). */
export { DOZEN } from '../../www/js/warm-up.js';

/**
 * Ten rooms like DOZEN side by side, a door between them, 120 boxes (written for these
 * tests): the fast search finds no solution natively in 40 s and fills 2 MiB in 7 s, so a
 * test can watch it run and cancel it, or see it stop at a small memory budget. Four such
 * rooms no longer serve: with the packing search's plan the search solves them in 0.4 s
 * (eight in 3 s); ten are past the size for which the plan comes from a backward analysis
 * (goals² × squares), so the goals are ordered by distance and the search gets nowhere.
 * If a better search ever solves this one, find another. One file, also read by the
 * wasm-bindgen tests.
 */
export const TEN_ROOMS = readFileSync(new URL('../levels/ten-rooms.xsb', import.meta.url), 'utf8').trimEnd();

/**
 * The first six rooms of TEN_ROOMS, walled off after the sixth (72 boxes): the fast search
 * solves it in 4–5 s in the page, with the shipped schedule and with portfolio lane 1
 * alike, so a test can stop one worker mid-search and see the other finish.
 */
export const SIX_ROOMS = TEN_ROOMS.split('\n')
  .map((line, row) => (row <= 8 ? `${line.slice(0, 96)}#` : line.slice(0, 96).trimEnd()))
  .join('\n');
