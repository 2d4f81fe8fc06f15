from roses.cli import run

run()
