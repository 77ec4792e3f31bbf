module cachedep

go 1.25
