module example.com/taskq

go 1.25
