module oldgo

go 1.18
