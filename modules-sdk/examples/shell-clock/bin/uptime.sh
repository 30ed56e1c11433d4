#!/bin/sh
# The uptime action (a click on the clock): a notification with how long the machine has
# been up and its three load averages. A newer one replaces the older (dedupe key).
set -eu

if [ -r /proc/uptime ]; then
    read -r up _idle < /proc/uptime
    up=${up%.*}
    days=$((up / 86400))
    hours=$((up % 86400 / 3600))
    mins=$((up % 3600 / 60))
    if [ "$days" -gt 0 ]; then since="${days}d ${hours}h"; else since="${hours}h ${mins}m"; fi
else
    since=$(uptime | sed 's/.*up *//; s/, *[0-9]* user.*//')
fi
if [ -r /proc/loadavg ]; then
    read -r l1 l5 l15 _rest < /proc/loadavg
    loads="$l1 $l5 $l15"
else
    loads=$(uptime | sed 's/.*load averages*: *//; s/,//g')
fi

artu ui notification push --text "up $since · load $loads" --level info --dedupe-key uptime >/dev/null
