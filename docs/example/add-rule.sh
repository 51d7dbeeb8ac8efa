#!/bin/sh
# An "editor" for annotate guidelines edit: it appends a rule to the file it is given.
printf "\nA lawyer asking on behalf of a client is a legal_expert.\n" >> "$1"
