module example.com/oldtick

go 1.12
