"""An allocation in the law's terms and as files: the seat, route and dispositions of each appointee
(`result`), a reason for every candidate (`reasons`), the output files written atomically (`reports`), and
what an override did (`overrides`)."""
