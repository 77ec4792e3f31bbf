module toolrace

go 1.25
