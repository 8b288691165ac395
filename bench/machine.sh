#!/usr/bin/env bash
# Prints a slug naming this machine's CPU (bench/results/<slug>/ keeps each machine's figures apart).
model=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2)
[ -n "$model" ] || model=$(uname -m)
echo "$model" | tr 'A-Z' 'a-z' | sed -E 's/\(r\)|\(tm\)|cpu|processor|[0-9]+-core//g; s/@.*//; s/[^a-z0-9]+/-/g; s/^-+|-+$//g'
