module testctx

go 1.25
