// browser tests come next
