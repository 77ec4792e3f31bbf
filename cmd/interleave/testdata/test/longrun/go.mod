module example.com/longrun

go 1.22
