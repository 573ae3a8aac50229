-- An open challenge names no opponent: anyone but the challenger may accept it.
ALTER TABLE "challenges" ALTER COLUMN "opponent_id" DROP NOT NULL;
