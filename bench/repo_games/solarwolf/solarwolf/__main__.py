"""
Another Main module. So `python -m solarwolf` works
"""

if __name__ == "__main__":
    import solarwolf.cli

    solarwolf.cli.main()
