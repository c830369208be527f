from cardbase.cli.app import main

main()
