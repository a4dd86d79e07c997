DROP TABLE IF EXISTS public_offer;
