#!/usr/bin/env bash
cd /work/wt/applic21
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic21/ggc-branch github.com/Code-Hex/go-generics-cache@v1.5.1 > /tmp/applic21/ggc-branch.log 2>&1
