module racereturn

go 1.25
