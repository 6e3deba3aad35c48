"""The applications' runs as library objects: a recruitment year (`run_year`: read, solve against the register,
record and publish its outputs), a run of years (`run_years`), and the register's view of a year for `verify`
(`register_seats`). The command line is a thin layer over these; so are the sweeps. `examples` writes the
bundled examples' inputs (`aarakshan demo`)."""
from .verify import register_seats
from .year import Round, RunOptions, YearRun, open_register, run_year, solve_round
from .years import YearInputs, check_inputs, earlier_rows, folder_inputs, read_years, resumable, run_years, \
    simulation_rows, year_folders

__all__ = ["Round", "RunOptions", "YearInputs", "YearRun", "check_inputs", "earlier_rows", "folder_inputs", "open_register",
           "read_years", "register_seats", "resumable", "run_year", "run_years", "simulation_rows", "solve_round",
           "year_folders"]
