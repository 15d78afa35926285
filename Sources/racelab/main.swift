import RaceLabCLI
