module example.com/genasync

go 1.24
