module samename

go 1.25
