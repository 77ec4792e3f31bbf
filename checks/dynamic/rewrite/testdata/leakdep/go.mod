module example.com/leakdep

go 1.25

require go.uber.org/goleak v1.1.12

replace go.uber.org/goleak => ./oldgoleak
