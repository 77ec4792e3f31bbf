module sleepy

go 1.24
