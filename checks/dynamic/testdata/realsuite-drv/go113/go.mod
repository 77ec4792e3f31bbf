module go113

go 1.13
