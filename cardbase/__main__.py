from cardbase.cli.entry import main

main()
