module kernels

go 1.25
