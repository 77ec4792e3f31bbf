module example.com/syncing

go 1.24
