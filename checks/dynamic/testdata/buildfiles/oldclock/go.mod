module example.com/oldclock

go 1.16
