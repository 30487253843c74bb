// levels.js — the built-in levels shown on first open (written for this project), as one
// collection text in the usual ".txt" format: a "; title" line above each board.
export const BUILTIN = `; Built-in levels

; First Light
  #####
###   #
#  $# #
# .@  #
#  $. #
##   ##
 #####

; Courtyard
 #######
 #  .  #
##$##$ #
#  @ . #
# .# $ #
#     ##
#######

; Four Corners
#########
#       #
#  .$.  #
#  $@$  #
#  .$.  #
#       #
#########

; Crossroads
   ####
####  ###
#   $   #
# #.#.# #
#  $@$  #
# #.#.# #
#   $   #
###   ###
  #####

; Garden Gate
#########
#   #   #
# $   $ #
#  .#.  #
## ### ##
#  .#.  #
# $ @ $ #
#   #   #
#########
`;
