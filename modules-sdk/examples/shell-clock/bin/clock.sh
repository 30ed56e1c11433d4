#!/bin/sh
# The tick action: pushes the widget "clock" (the time, then the 1-minute load average,
# amber when it is above the number of CPUs). Runs every 5 s (every_ms) and on enable.
set -eu

now=$(date +%H:%M)
if [ -r /proc/loadavg ]; then
    read -r load _rest < /proc/loadavg
else
    load=$(uptime | sed 's/.*load averages*: *//; s/[, ].*//')
fi
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l > c) }'; then tone=warning; else tone=muted; fi

# A click on either segment runs the uptime action.
content="[{\"type\":\"text\",\"text\":\"$now\",\"action\":\"uptime\"},{\"type\":\"text\",\"text\":\" $load\",\"tone\":\"$tone\",\"action\":\"uptime\"}]"
compact="[{\"type\":\"text\",\"text\":\"$now\"}]"

# `artu bar push` is the spec's wrapper of ui.bar.push; it fills the owner from
# $ARTUDITU_MODULE_ID.
artu bar push --id clock --content "$content" --compact-content "$compact" >/dev/null
