module example.com/maps119

go 1.19
