module realsuite

go 1.25

require (
	clockdep v0.0.0
	dep v0.0.0
	example.com/mockclock v0.0.0
	github.com/stretchr/testify v1.11.1
	go.uber.org/goleak v1.3.0
)

replace clockdep => ./clockdep

replace dep => ./dep

replace example.com/mockclock => ./mockclock

replace go.uber.org/goleak => ./fakegoleak

replace github.com/stretchr/testify => ./faketestify
