module example.com/buildfiles

go 1.16

require (
	example.com/nogoline v0.0.0
	example.com/oldclock v0.0.0
)

replace example.com/oldclock => ./oldclock

replace example.com/nogoline => ./nogoline
