"""What analysts and administrations ask of many runs: scenario sweeps (`sweep`, `sweep_tables`), two runs
compared (`compare`, `winners`), the charts of report.html for a solve, a comparison or a sweep (`charts`), the annual report from a register (`annual`), and the surrender of employees
when posts are abolished (`surrender`)."""
