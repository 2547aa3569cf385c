import asyncio
async def main():
    await asyncio.sleep(0)
    return 'async done'
print(asyncio.run(main()))
