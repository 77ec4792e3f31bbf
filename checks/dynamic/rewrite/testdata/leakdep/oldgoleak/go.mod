module go.uber.org/goleak

go 1.13
