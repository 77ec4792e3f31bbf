module example.com/mapsold

go 1.16
