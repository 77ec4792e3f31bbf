module draws

go 1.25
