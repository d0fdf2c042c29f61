#!/usr/bin/env Rscript
# Writes real tables "as they come" (missing values, text and factor columns, text labels) as CSVs for banditfs's
# reader and the comparison with scikit-learn (scripts/bench/real_tables.py; docs/results.md, "Real tables").
# Needs r-base-core, r-cran-palmerpenguins and r-cran-mass (scripts/install-deps.sh); call it through
# scripts/data/export_r_tables.sh, which checks them:
#
#   Rscript scripts/data/export_r_tables.R results/data/real
#
# Nothing is cleaned: factors are written as their level names, every missing cell as NA (R's own token, one of
# pandas' default NA tokens and of banditfs's data.na_values, and unlike an empty cell visibly a value that is
# missing rather than a truncated line), and rows with a missing target stay in the file for the reader to drop.
# Dots in column names become underscores (as scripts/data/export_r.R). Fields are written unquoted; the script
# stops if one holds a comma or a quote.
#
#   file             rows x cols  target (task)                 missing cells              text / factor columns
#   airquality.csv   153 x 6      Ozone (regression)            Ozone 37, Solar_R 7        none (Month kept numeric)
#   penguins.csv     344 x 8      sex (binary: female / male)   sex 11, 4 numeric cols 2   species, island, sex
#   survey.csv       237 x 12     Height (regression)           Height 28, Pulse 45, M_I   Sex, W_Hnd, Fold, Clap,
#                                                               28, six more columns 1     Exer, Smoke, M_I
#   cars93.csv        93 x 27     Price (regression)            Rear_seat_room 2,          Manufacturer, Model, Type,
#                                                               Luggage_room 11            AirBags, DriveTrain,
#                                                                                           Cylinders (3 … 8, rotary),
#                                                                                           Man_trans_avail,
#                                                                                           Origin, Make
#
# Why these targets: Ozone is the response of R's own airquality examples (and its missing values exercise the
# reader's dropping of rows without a target; Temp has none). sex is palmerpenguins' text label with missing
# values, two classes, and a known answer (body mass and bill depth, within species). Height in survey is
# explained by Sex and the hand spans, a known answer among six factors. Price in Cars93 has Min_Price and
# Max_Price beside it (the same price, leaked) and two id columns (Model, Make: one level per row): a job must
# exclude them (data.exclude), which is what a user of this table has to do.

suppressPackageStartupMessages({
  library(palmerpenguins)
  library(MASS)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) {
  stop("usage: Rscript scripts/data/export_r_tables.R OUT_DIR", call. = FALSE)
}
out_dir <- args[[1]]
dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)

write_table <- function(df, name, target, expect_n, expect_cols) {
  df <- as.data.frame(df)
  names(df) <- gsub(".", "_", names(df), fixed = TRUE)
  for (col in names(df)) {
    if (is.factor(df[[col]])) df[[col]] <- as.character(df[[col]])
    if (is.character(df[[col]]) && any(grepl("[,\"]", df[[col]]))) {
      stop(name, ": column ", col, " has a comma or a quote in a value", call. = FALSE)
    }
  }
  n <- nrow(df)
  cols <- ncol(df)
  status <- if (n == expect_n && cols == expect_cols) "ok" else sprintf("MISMATCH (expected %d x %d)", expect_n, expect_cols)
  path <- file.path(out_dir, paste0(name, ".csv"))
  write.csv(df, path, row.names = FALSE, quote = FALSE, na = "NA")
  text <- names(df)[!vapply(df, is.numeric, logical(1))]
  cat(sprintf("%-11s %4d x %-3d target %-7s %4d missing cells; text: %s  %s -> %s\n", name, n, cols, target,
              sum(is.na(df)), paste(text, collapse = " "), status, path))
  n == expect_n && cols == expect_cols
}

ok <- logical(0)
ok <- c(ok, write_table(datasets::airquality, "airquality", "Ozone", 153, 6))
ok <- c(ok, write_table(palmerpenguins::penguins, "penguins", "sex", 344, 8))
ok <- c(ok, write_table(MASS::survey, "survey", "Height", 237, 12))
ok <- c(ok, write_table(MASS::Cars93, "cars93", "Price", 93, 27))
if (!all(ok)) stop("row or column counts differ from the packages' documentation", call. = FALSE)
