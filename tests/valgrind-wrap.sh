#!/bin/sh
# Runs a test program under valgrind (configure --enable-valgrind).
exec valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"
