module robust

go 1.25
