use clap::Parser;
use pressroom::cli::{run_admin, run_backup, run_counters, run_index, run_media, Cli, Command};
use pressroom::config::Settings;
use pressroom::startup::Application;
use pressroom::telemetry;

/// jemalloc, configured (`.cargo/config.toml`) to give freed pages back to the system within
/// about a second, from a background thread.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let settings = Settings::load()?;
    telemetry::init(&settings.log);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            Application::build(settings)
                .await?
                .run_until_stopped()
                .await?
        }
        Command::Index { action } => println!("{}", run_index(&settings, action).await?),
        Command::Media { action } => println!("{}", run_media(&settings, action).await?),
        Command::Counters { action } => {
            let report = run_counters(&settings, action).await?;
            println!("{}", report.text);
            // A verification that found counters differing from their records fails, so a
            // scheduled check is noticed.
            if !report.consistent {
                std::process::exit(1);
            }
        }
        backup @ (Command::Backup { .. } | Command::Restore { .. }) => {
            println!("{}", run_backup(&settings, backup).await?)
        }
        admin => println!("{}", run_admin(&settings, admin).await?),
    }
    Ok(())
}
